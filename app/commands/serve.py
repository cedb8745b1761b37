"""`jingsuan app [--host H] [--port P] [--https]`: serve the Streamlit app on the LAN.

Prints the address and a QR code (segno) to open it on a phone.  Beyond localhost every request
passes the access gate (app/gate.py): the QR link (`/gate?code=...`) sets a signed cookie; the
code is kept in the data folder (0600) so the link stays valid across restarts.  Codes under 8
characters or outside ASCII are refused.  `--https` makes a self-signed certificate (openssl, or
the `cryptography` package when installed) so that phones allow the camera widget.  Nothing is
asked of the internet: Streamlit's banner (which looks up the external IP) is off.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

from app.commands import whole_number

HELP = "启动网页应用（局域网内用手机打开） / serve the app on the LAN"
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
MAIN = Path(__file__).resolve().parents[1] / "main.py"
ASGI = Path(__file__).resolve().parents[1] / "server" / "asgi.py"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0 = the whole LAN)")
    parser.add_argument("--port", type=whole_number(1, 65535, ("端口", "a port is ")), default=8501, help="port (default 8501)")
    parser.add_argument("--https", action="store_true", help="self-signed HTTPS, enables the camera widget on phones")
    parser.add_argument("--access-code", default=None, help="access code for LAN users (default: saved random code)")
    parser.add_argument("--models", default=None, help="folder with the detector model (default: shipped models/)")
    parser.add_argument(
        "--data-dir", default=None, help="folder for the ledger (default: $JINGSUAN_DATA_DIR or the user data folder)"
    )
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")


def needs_access_code(host: str) -> bool:
    """Only a server reachable from other machines asks for the code."""
    return host not in LOCAL_HOSTS


def lan_address() -> str:
    """This laptop's address on the LAN (no packet is sent), or 127.0.0.1 when there is none."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def access_code(data_dir: Path, given: str | None) -> str:
    """The table's access code: `given`, else the one saved in the data folder, else a new one (saved, 0600).

    A weak code (under 8 characters, not ASCII) raises AccessCodeError; a weak saved one is replaced.
    """
    from app.gate import check_access_code, write_private

    if given is not None:
        return check_access_code(given)
    path = data_dir / "access_code.txt"
    try:
        saved = path.read_text(encoding="utf-8").strip()
        check_access_code(saved)
        path.chmod(0o600)
        return saved
    except (OSError, UnicodeDecodeError, ValueError):
        pass
    code = secrets.token_urlsafe(9)
    write_private(path, code + "\n")
    return code


def app_url(host: str, port: int, https: bool, code: str | None) -> str:
    """The link to open on a phone: the gate with the code, which sets the cookie and opens the app."""
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    url = f"{'https' if https else 'http'}://{shown}:{port}/"
    return f"{url}gate?{urlencode({'code': code})}" if code else url


def make_self_signed_cert(folder: Path, host: str) -> tuple[Path, Path]:
    """(cert, key) for `host`, created once in `folder`; openssl or the `cryptography` package."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / "jingsuan-cert.pem", folder / "jingsuan-key.pem"
    if cert.exists() and key.exists():
        return cert, key
    san = (
        f"subjectAltName=IP:{host},DNS:localhost,IP:127.0.0.1"
        if host[0].isdigit()
        else f"subjectAltName=DNS:{host},DNS:localhost"
    )
    if shutil.which("openssl"):
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "825", "-subj", "/CN=jingsuan",
             "-addext", san, "-keyout", str(key), "-out", str(cert)],
            check=True, capture_output=True,
        )  # fmt: skip
    else:
        _cert_with_cryptography(cert, key, host)
    key.chmod(0o600)
    return cert, key


def _cert_with_cryptography(cert: Path, key: Path, host: str) -> None:
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import NameOID

    pk = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "jingsuan")])
    alt: list[x509.GeneralName] = [x509.DNSName("localhost")]
    try:
        alt.append(x509.IPAddress(ipaddress.ip_address(host)))
    except ValueError:
        alt.append(x509.DNSName(host))
    now = datetime.datetime.now(datetime.UTC)
    c = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(pk.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=825))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False).sign(pk, hashes.SHA256())
    )  # fmt: skip
    key.write_bytes(
        pk.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    cert.write_bytes(c.public_bytes(serialization.Encoding.PEM))


def streamlit_command(host: str, port: int, cert: tuple[Path, Path] | None) -> list[str]:
    """`python -m streamlit run app/server/asgi.py` with offline, headless flags and no error details."""
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(ASGI),
        "--server.address", host, "--server.port", str(port), "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--global.developmentMode", "false",
        "--logger.hideWelcomeMessage", "true", "--client.showErrorDetails", "none",
        "--server.enableCORS", "true", "--server.enableXsrfProtection", "true",
    ]  # fmt: skip
    if cert:
        cmd += ["--server.sslCertFile", str(cert[0]), "--server.sslKeyFile", str(cert[1])]
    return cmd


def run(args: argparse.Namespace) -> int:
    from app.gate import AccessCodeError
    from app.ledger import DATA_DIR_LOCK_ENV, ENV_DATA_DIR, default_data_dir
    from vision.reader.session import DETECTOR_FILE, models_dir

    detector = models_dir(args.models) / DETECTOR_FILE if args.models else None
    if detector is not None and not detector.is_file():  # every photo would fail
        print(f"找不到识别模型：{detector} (detector model not found: {detector})", file=sys.stderr)
        return 2
    env = dict(os.environ)
    if args.data_dir:
        env[ENV_DATA_DIR] = str(Path(args.data_dir).expanduser())
        os.environ[ENV_DATA_DIR] = env[ENV_DATA_DIR]
    data_dir = default_data_dir()
    try:
        code = access_code(data_dir, args.access_code) if needs_access_code(args.host) else None
    except AccessCodeError as exc:
        print(f"{exc.zh} ({exc.en})", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"无法保存访问码 (cannot save the access code): {exc}", file=sys.stderr)
        return 2
    if code:
        env["JINGSUAN_ACCESS_CODE"] = code
        env[ENV_DATA_DIR] = str(data_dir)  # the laptop's folder: no phone can move the ledger
        env[DATA_DIR_LOCK_ENV] = "1"
    else:
        env.pop("JINGSUAN_ACCESS_CODE", None)
    if args.models:
        env["JINGSUAN_MODEL_DIR"] = str(Path(args.models).expanduser())
    cert = None
    if args.https:
        shown = lan_address() if args.host in ("0.0.0.0", "::") else args.host
        try:
            cert = make_self_signed_cert(data_dir / "tls", shown)
        except (OSError, subprocess.CalledProcessError, ImportError) as exc:
            print(f"无法生成 HTTPS 证书：{exc}", file=sys.stderr)
            return 2
        env["JINGSUAN_HTTPS"] = "1"
    env.setdefault("STREAMLIT_BROWSER_GATHER_USAGE_STATS", "false")
    env["FORWARDED_ALLOW_IPS"] = ""  # no proxy of ours: the gate counts guesses by the TCP peer, not X-Forwarded-For
    url = app_url(args.host, args.port, bool(cert), code)
    print(f"精算已启动 / jingsuan is running: {url}")
    print(f"账本 / ledger: {data_dir}")
    if cert:
        print("自签名证书：手机上第一次打开时请选择“继续访问”。 (self-signed certificate: accept it once)")
    if not needs_access_code(args.host):
        print("只在这台电脑上可用：手机打不开这个地址，要用手机请去掉 --host。"
              " (this laptop only: a phone cannot open this address; drop --host to serve the LAN)")
    elif not args.no_qr:
        import segno

        segno.make(url, error="m").terminal(compact=True)
    try:
        return subprocess.call(streamlit_command(args.host, args.port, cert), env=env, cwd=MAIN.parents[1])
    except KeyboardInterrupt:
        return 0
