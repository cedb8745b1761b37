"""Streamlit pages of the app, one file per page (算分, 牌局, 规则; 标注 from the annotate branch)."""
