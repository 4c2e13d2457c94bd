"""UI text in English, one module per page or topic, each an EN dict (the source: every key);
every other language is one file, ui/locales/<code>.json, holding per module name the same keys
(tests/test_zh_complete.py checks). ui/i18n.py renders them."""
