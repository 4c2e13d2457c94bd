"""The class server: what lets one Streamlit server serve a whole class safely, apart from what
any page draws.

    roles, sign_in          who a session is (teacher, student, open; its client and person),
                            what it may do, the audit log; the teacher's token and its sign-in
    quota, admission        per-person limits: token buckets for costly actions and uploads, the
                            fair inference and page slots
    server_guard,           what Streamlit answers before a page runs (uploads, clear_cache,
    client_address,         widget values), the connection's real address, how much text one box
    text_limits             takes
    run_actions, run_files  training runs: acting on them (role, cap, classroom switch, disk
                            budget checked and audited); a run's folder and what its files say
    places                  where the server keeps runs/ and uploads/
    byte_cache,             the process: a cache bounded by bytes, the garbage collector and the C
    gc_tuning,              allocator tuned once
    malloc_tuning

The page sections (ui/<name>_view.py, page_kit, shell, ...) call into this package; it imports
nothing of ui but the translation mechanism (ui.i18n, ui.strings), so its rules hold whatever page
is drawn (tests/test_import_graph.py). No names are re-exported here: import the module.
"""
