"""The user-facing side: the `jingsuan` CLI and the Streamlit app."""
