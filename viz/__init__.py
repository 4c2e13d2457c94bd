"""Figure and table builders: tensors in, plotly Figures / pandas DataFrames out. Pure functions,
tested without Streamlit."""
