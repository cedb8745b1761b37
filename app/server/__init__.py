"""What `jingsuan app` serves: `asgi.py` (Streamlit's `st.App` behind the access gate) and its error log."""
