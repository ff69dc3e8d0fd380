# The shared bad/ case unclosed_paren (expected.toml gives its code and line).
# RUN: check %shared/kernels/bad/unclosed_paren.py
# ERROR: E-PARSE 8:20
