#!/usr/bin/env bash
# System packages the tests need: Debian's chromium for the Playwright e2e tests (no browser
# download), the KDE/GNOME tile art + rsvg-convert + CJK fonts for the synthetic renderer, and g++
# for building pymahjonggb (a test dependency with no wheel).
set -u
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v rsvg-convert >/dev/null 2>&1 || need+=(librsvg2-bin)
[ -d /usr/share/kmahjongglib ] || [ -d /usr/share/kf5/kmahjongglib ] || need+=(kdegames-mahjongg-data-kf5)
[ -f /usr/share/gnome-mahjongg/themes/smooth.png ] || need+=(gnome-mahjongg)  # the "smooth" tileset
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || need+=(fonts-noto-cjk)
# more CJK faces for the varied drawn tilesets (brush/kai, Ming, Zen Hei); the renderer uses whichever are installed
[ -f /usr/share/fonts/truetype/arphic/ukai.ttc ] || need+=(fonts-arphic-ukai)
[ -f /usr/share/fonts/truetype/arphic/uming.ttc ] || need+=(fonts-arphic-uming)
[ -f /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ] || need+=(fonts-wqy-zenhei)
command -v g++ >/dev/null 2>&1 || need+=(g++)  # pymahjonggb (国标 differential test) builds from source
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}") >/dev/null 2>&1 \
      || echo "warning: could not install ${need[*]}; tests that need them will fail with a clear message" >&2
  else
    echo "warning: please install: sudo apt-get install ${need[*]}" >&2
  fi
fi
exit 0
