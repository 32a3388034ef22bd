"""spec/hosts.toml as a Python literal (start-up: no TOML parsing on a count).

Written by `python -m rebootspec.reference.core.registry`; used only while
spec/hosts.toml has exactly the bytes of SOURCE (registry.py). Do not edit."""

# fmt: off
SOURCE = (b'# The host table (rule HST-1): every host whose logs spec 3.0 counts, its chapter, a'
 b'nd its eras.\n# A case\'s `host` (case.toml; absent means "vscode") must be a key '
 b'of this table, and its `era`\n# one of the host\'s eras or "none". `module` is the'
 b" host's package under reference/hosts/ (the\n# registry, reference/core/registry."
 b"py, imports it); `detect_rank` is its place in HST-2's order\n# (lower is asked f"
 b'irst); `fallback` marks the host whose rules judge a file no row claims before\n#'
 b" its first value is an object (HST-2's last row). The VS Code eras are the rows of s"
 b'pec/eras.toml (ERA-1);\n# the other hosts list theirs here, each defined in the h'
 b'ost\'s chapter.\n\n[vscode]\nname = "VS Code Copilot Chat"\nchapter = "hosts/vsco'
 b'de.md"\nrule_prefixes = ["LEG", "RPL", "ERA", "MRK", "SUM", "CNT", "UNC"]\nmodule '
 b'= "vscode"\ndetect_rank = 20\nfallback = true\n# eras: the [[eras]] rows of spec/er'
 b'as.toml\n\n[codex]\nname = "OpenAI Codex CLI"\nchapter = "hosts/codex.md"\nrule_p'
 b'refixes = ["CDX"]\nmodule = "codex"\ndetect_rank = 30\n# CDX-2: C0 recorded no comp'
 b'action (E-UNMEASURABLE); C1..C5 by record shape.\neras = ["C0", "C1", "C2", "C3",'
 b' "C4", "C5"]\n# CDX-8: the first npm release of @openai/codex that writes a top-l'
 b'evel `compacted` record;\n# a rollout without one, without the marks of a later w'
 b"riter (CDX-8's table) and whose\n# `cli_version` is a plain release older than th"
 b'is is C0 (checked with the real program,\n# generators/harvest).\nfirst_recording_'
 b'version = "0.36.0"\n\n[pi]\nname = "pi coding agent"\nchapter = "hosts/pi.md"\nru'
 b'le_prefixes = ["PIA"]\nmodule = "pi"\ndetect_rank = 40\n# PIA-2: the session file f'
 b'ormat version of the header (v1 has none).\neras = ["v1", "v2", "v3"]\n\n[claude-co'
 b'de]\nname = "Claude Code"\nchapter = "hosts/claude-code.md"\nrule_prefixes = ["CLC"'
 b']\nmodule = "claude_code"\ndetect_rank = 50\n# CLC-2: CC0 (summaries only, counted '
 b'with W-LOW-CONFIDENCE, CLC-7); CC1..CC3 by record shape.\neras = ["CC0", "CC1", "'
 b'CC2", "CC3"]\n\n[gemini-cli]\nname = "Gemini CLI"\nchapter = "hosts/gemini-cli.m'
 b'd"\nrule_prefixes = ["GEM"]\nmodule = "gemini_cli"\ndetect_rank = 10\n# GEM-2: J0 th'
 b'e whole-file .json chat (up to 0.38) and G0 the .jsonl chat without a history\n# '
 b'sync (0.39-0.43) recorded no compression (E-UNMEASURABLE, GEM-7); G1 from 0.44.\n'
 b'eras = ["J0", "G0", "G1"]\n\n[opencode]\nname = "opencode"\nchapter = "hosts/opencod'
 b'e.md"\nrule_prefixes = ["OPC"]\nmodule = "opencode"\ndetect_rank = 1\n# OPC-2: O0 (1'
 b'.0.0, JSON storage, a summary message without a pair: counted by OPC-5), O1 (JSO'
 b'N\n# storage with the pair), O2 (SQLite opencode.db, 1.2-1.3), O3 (SQLite, 1.14 a'
 b'nd later).\neras = ["O0", "O1", "O2", "O3"]\n\n[basic-agent-chat-loop]\nname = "basi'
 b'c-agent-chat-loop"\nchapter = "hosts/basic-agent-chat-loop.md"\nrule_prefixes = ["'
 b'BCL"]\nmodule = "chat_loop"\ndetect_rank = 2\n# BCL-2: M0 the markdown sessions bef'
 b'ore 1.6.0 (no compaction: 0), M1 from 1.6.0 (restorations).\neras = ["M0", "M1"]\n'
 b'\n[copilot-cli]\nname = "GitHub Copilot CLI"\nchapter = "hosts/copilot-cli.md"\nrule'
 b'_prefixes = ["CPL"]\n# CPL-2: P0 (up to 0.0.372: no compaction, counts 0), P1 (0.'
 b'0.376 to about 1.0.9x), P2 (1.0.102:\n# `outcome`, `compactionAttemptId`). No era'
 b' is unmeasurable. Also VS Code\'s Agent Host (CPL-11).\neras = ["P0", "P1", "P2"]\n'
 b'module = "copilot_cli"\ndetect_rank = 60\n\n[cline]\nname = "Cline"\nchapter = "h'
 b'osts/cline.md"\nrule_prefixes = ["CLN"]\nmodule = "cline"\ndetect_rank = 3\n# CLN-3:'
 b' L0 (task folder before 3.13.3: legacy truncation only, counts 0), L1 (3.13.3: /smol'
 b'\n# condense), L2 (3.25: auto-compact summarize_task), S1 (the SDK session folder'
 b' of CLI 3.x and\n# extension 4.x: 0 without a compaction file, else E-UNMEASURABL'
 b'E, CLN-12).\neras = ["L0", "L1", "L2", "S1"]\n\n[roo-code]\nname = "Roo Code"\nch'
 b'apter = "hosts/cline.md"\nrule_prefixes = ["CLN"]\nmodule = "roo_code"\n# HST-1: a '
 b"member of the Cline family: Cline's reader reads its task folders (CLN-2).\nfamil"
 b'y = "cline"\ndetect_rank = 4\n# CLN-3: R0 (no LLM condense: counts 0), R1 (3.17: a'
 b' summary without a ui record:\n# E-UNMEASURABLE), R2 (3.18-3.35: condense_context'
 b' rows; the api history keeps the latest\n# summary only), R3 (3.36+: non-destruct'
 b'ive condense, sliding_window_truncation).\neras = ["R0", "R1", "R2", "R3"]\n\n[kilo'
 b'-code]\nname = "Kilo Code extension"\nchapter = "hosts/cline.md"\nrule_prefixes = ['
 b'"CLN"]\nmodule = "kilo_code"\nfamily = "cline"\ndetect_rank = 5\n# CLN-3: KX0 (a sum'
 b'mary without a ui record: E-UNMEASURABLE), KX1 (condense_context rows, the\n# api'
 b' history keeps the latest summary only), KX2 (non-destructive condense).\neras = '
 b'["KX0", "KX1", "KX2"]\n')

TABLE = {'vscode': {'name': 'VS Code Copilot Chat',
            'chapter': 'hosts/vscode.md',
            'rule_prefixes': ['LEG', 'RPL', 'ERA', 'MRK', 'SUM', 'CNT', 'UNC'],
            'module': 'vscode',
            'detect_rank': 20,
            'fallback': True},
 'codex': {'name': 'OpenAI Codex CLI',
           'chapter': 'hosts/codex.md',
           'rule_prefixes': ['CDX'],
           'module': 'codex',
           'detect_rank': 30,
           'eras': ['C0', 'C1', 'C2', 'C3', 'C4', 'C5'],
           'first_recording_version': '0.36.0'},
 'pi': {'name': 'pi coding agent',
        'chapter': 'hosts/pi.md',
        'rule_prefixes': ['PIA'],
        'module': 'pi',
        'detect_rank': 40,
        'eras': ['v1', 'v2', 'v3']},
 'claude-code': {'name': 'Claude Code',
                 'chapter': 'hosts/claude-code.md',
                 'rule_prefixes': ['CLC'],
                 'module': 'claude_code',
                 'detect_rank': 50,
                 'eras': ['CC0', 'CC1', 'CC2', 'CC3']},
 'gemini-cli': {'name': 'Gemini CLI',
                'chapter': 'hosts/gemini-cli.md',
                'rule_prefixes': ['GEM'],
                'module': 'gemini_cli',
                'detect_rank': 10,
                'eras': ['J0', 'G0', 'G1']},
 'opencode': {'name': 'opencode',
              'chapter': 'hosts/opencode.md',
              'rule_prefixes': ['OPC'],
              'module': 'opencode',
              'detect_rank': 1,
              'eras': ['O0', 'O1', 'O2', 'O3']},
 'basic-agent-chat-loop': {'name': 'basic-agent-chat-loop',
                           'chapter': 'hosts/basic-agent-chat-loop.md',
                           'rule_prefixes': ['BCL'],
                           'module': 'chat_loop',
                           'detect_rank': 2,
                           'eras': ['M0', 'M1']},
 'copilot-cli': {'name': 'GitHub Copilot CLI',
                 'chapter': 'hosts/copilot-cli.md',
                 'rule_prefixes': ['CPL'],
                 'eras': ['P0', 'P1', 'P2'],
                 'module': 'copilot_cli',
                 'detect_rank': 60},
 'cline': {'name': 'Cline',
           'chapter': 'hosts/cline.md',
           'rule_prefixes': ['CLN'],
           'module': 'cline',
           'detect_rank': 3,
           'eras': ['L0', 'L1', 'L2', 'S1']},
 'roo-code': {'name': 'Roo Code',
              'chapter': 'hosts/cline.md',
              'rule_prefixes': ['CLN'],
              'module': 'roo_code',
              'family': 'cline',
              'detect_rank': 4,
              'eras': ['R0', 'R1', 'R2', 'R3']},
 'kilo-code': {'name': 'Kilo Code extension',
               'chapter': 'hosts/cline.md',
               'rule_prefixes': ['CLN'],
               'module': 'kilo_code',
               'family': 'cline',
               'detect_rank': 5,
               'eras': ['KX0', 'KX1', 'KX2']}}
