"""spec/eras.toml as a Python literal (start-up: no TOML parsing on a count).

Written by `python -m rebootspec.reference.eras`; used only while spec/eras.toml has
exactly the bytes of SOURCE (reference/hosts/vscode/eras.py). Do not edit."""

# fmt: off
SOURCE = (b'# The era table (rule ERA-1). The single place where a marker string, a part kind or'
 b' a\n# summary field is spelled. The reference and the generator both read this fi'
 b'le; adding an\n# era or a translated marker is a change here plus fixtures that c'
 b'ite it.\n#\n# Spec 2.0: markers are informative (MRK-*). They never change the cou'
 b'nt, which is read from\n# the stored evidence alone (SUM-*, CNT-*). The table sti'
 b'll matters: it decides which requests\n# are listed as phantoms and which events '
 b'get W-NO-MARKER.\n#\n# Every marker string of every era and locale is recognised i'
 b'n every file (ERA-2): a counter\n# never has to guess which era or display langua'
 b'ge a file belongs to. The era of a fixture\n# only says which vocabulary the gene'
 b'rator used to write it. Versions are Copilot Chat\n# extension versions and the `'
 b'engines.vscode` minimum of the releases of that era (a minimum,\n# not a pin: mar'
 b'kers of an older era inside a newer VS Code\'s log are normal).\n\nspec_version = "'
 b'3.0"\n\n# Response-part kinds that carry an automatic compaction marker (MRK-1). `'
 b'progressTask` is\n# what a live task object serialises to when it lacks toJSON (o'
 b'lder builds); since early 2025\n# the serialised form is `progressTaskSerialized`'
 b'.\nmarker_part_kinds = ["progressTaskSerialized", "progressTask"]\n\n# Progress tas'
 b'ks that are NOT compaction markers (MRK-3): Copilot reports other work with the\n'
 b'# same part kinds. Informative; the generator writes them to show that kind alone is'
 b' no marker.\nother_progress_tasks = [\n    "Collecting workspace information",\n   '
 b' "Filtering to most relevant information",\n    "Extended tool call limit with Au'
 b'topilot",\n]\n\n# The manual `/compact` command (MRK-4). It writes a progressMessag'
 b'e part while it runs and a\n# bare markdown part (no `kind`) when it finished.\n[m'
 b'anual]\nslash_command = "compact"\nmessage_command = "/compact"\nin_progress = ["Co'
 b'mpacting conversation..."]\ncompleted_markdown = ["Compacted conversation."]\nsinc'
 b'e_copilot = "0.38"\nsince_date = "2026-02-08"\n\n[[eras]]\nid = "summarized"\nloc'
 b'ale = "en"                  # the strings below; translations are rows of [[translat'
 b'ions]]\ntitle = "Summarized conversation history, singular summary"\ncopilot = "0.'
 b'29 - 0.37"\nvscode = "1.102 - 1.109"\nfrom_date = "2025-05-07"\nto_date = "2026-03-'
 b'04"\ncompleted = ["Summarized conversation history"]\nin_progress = ["Summarizing '
 b'conversation history..."]\nsummary_field = "summary"      # result.metadata.summa'
 b'ry = {toolCallRoundId, text}\ncontainers = ["json", "jsonl"] # flat .json up to V'
 b'S Code 1.108, the log from 1.109\n\n[[eras]]\nid = "compacted"\nlocale = "en"       '
 b'           # the strings below; translations are rows of [[translations]]\ntitle '
 b'= "Compacted conversation, singular summary"\ncopilot = "0.38 - 0.40.2026031401" '
 b'  # the early 0.40 prereleases still write `summary`\nvscode = "1.110 - 1.111"\nfr'
 b'om_date = "2026-02-09"\nto_date = "2026-03-14"\ncompleted = ["Compacted conversati'
 b'on"]\nin_progress = ["Compacting conversation..."]\nsummary_field = "summary"\ncont'
 b'ainers = ["jsonl"]\n\n[[eras]]\nid = "compacted-summaries"\nlocale = "en"           '
 b'       # the strings below; translations are rows of [[translations]]\ntitle = "C'
 b'ompacted conversation, summaries[] array"\ncopilot = "0.40.2026031601 -"        #'
 b' first build that writes summaries[]\nvscode = "1.111 -"\nfrom_date = "2026-03-14"'
 b'\nto_date = ""\ncompleted = ["Compacted conversation"]\nin_progress = ["Compacting '
 b'conversation..."]\nsummary_field = "summaries"    # result.metadata.summaries = ['
 b'{toolCallRoundId, text, source?, outcome?}, ...]\n# A successful foreground compa'
 b'ction writes two entries with the same round id and text (the\n# first with sourc'
 b'e/outcome); a background apply one; a failure one with empty id and text.\ncontai'
 b'ners = ["jsonl"]\n\n# Translations of the marker strings (ERA-3). Copilot passes e'
 b'very marker through its l10n\n# bundle for the VS Code display language, so a non'
 b'-English UI stores the translated text. The\n# bundles are build outputs that are'
 b' not published, so this list holds only strings seen in real\n# files; `of` names'
 b' the English string it translates. Adding one: a row here (with where it was\n# s'
 b'een) plus a fixture that cites ERA-3.\n[[translations]]\nlocale = "tr"\nof = "Summa'
 b'rized conversation history"\ntext = "\xc3\x96zetlenmi\xc5\x9f konu\xc5\x9fma ge'
 b'\xc3\xa7mi\xc5\x9fi"\nstate = "completed"\nseen = "a public Copilot Chat export of'
 b' a Turkish UI (no licence to copy): 14 progressTask parts in one request"\n\n# Com'
 b'paction mechanisms that are not an era of marker strings (informative; SUM-6, SUM-7,'
 b' UNC-*).\n[[mechanisms]]\nid = "round-summary"\ncopilot = "0.29 -"\nstores = "result'
 b'.metadata.toolCallRounds[k].summary: the text, on the round the summary anchored on,'
 b' when that round belongs to the request"\n\n[[mechanisms]]\nid = "background"\ncopil'
 b'ot = "0.38 -"\nsetting = "github.copilot.chat.backgroundCompaction (experiment, d'
 b'efault off)"\nstores = "0.38-0.39: a \'Compacted conversation\' marker (possibly in'
 b' a later request than the pass) and no metadata entry; from 0.40.2026031601 one summ'
 b'aries[] entry with source \'background\'"\n\n[[mechanisms]]\nid = "provider"\ncopi'
 b'lot = "0.38.2026021602 -"\nsetting = "github.copilot.chat.responsesApiContextMana'
 b'gement.enabled (experiment, default off)"\nstores = "result.metadata.toolCallRoun'
 b"ds[k].compaction = {type: 'compaction', id, encrypted_content}: no marker, no summar"
 b'y text"\n\n[[mechanisms]]\nid = "manual"\ncopilot = "0.38.2026020908 -"\nstores ='
 b' "/compact: progressMessage + markdown \'Compacted conversation.\'; result.metadat'
 b'a.summary"\n')

TABLE = {'spec_version': '3.0',
 'marker_part_kinds': ['progressTaskSerialized', 'progressTask'],
 'other_progress_tasks': ['Collecting workspace information',
                          'Filtering to most relevant information',
                          'Extended tool call limit with Autopilot'],
 'manual': {'slash_command': 'compact',
            'message_command': '/compact',
            'in_progress': ['Compacting conversation...'],
            'completed_markdown': ['Compacted conversation.'],
            'since_copilot': '0.38',
            'since_date': '2026-02-08'},
 'eras': [{'id': 'summarized',
           'locale': 'en',
           'title': 'Summarized conversation history, singular summary',
           'copilot': '0.29 - 0.37',
           'vscode': '1.102 - 1.109',
           'from_date': '2025-05-07',
           'to_date': '2026-03-04',
           'completed': ['Summarized conversation history'],
           'in_progress': ['Summarizing conversation history...'],
           'summary_field': 'summary',
           'containers': ['json', 'jsonl']},
          {'id': 'compacted',
           'locale': 'en',
           'title': 'Compacted conversation, singular summary',
           'copilot': '0.38 - 0.40.2026031401',
           'vscode': '1.110 - 1.111',
           'from_date': '2026-02-09',
           'to_date': '2026-03-14',
           'completed': ['Compacted conversation'],
           'in_progress': ['Compacting conversation...'],
           'summary_field': 'summary',
           'containers': ['jsonl']},
          {'id': 'compacted-summaries',
           'locale': 'en',
           'title': 'Compacted conversation, summaries[] array',
           'copilot': '0.40.2026031601 -',
           'vscode': '1.111 -',
           'from_date': '2026-03-14',
           'to_date': '',
           'completed': ['Compacted conversation'],
           'in_progress': ['Compacting conversation...'],
           'summary_field': 'summaries',
           'containers': ['jsonl']}],
 'translations': [{'locale': 'tr',
                   'of': 'Summarized conversation history',
                   'text': 'Özetlenmiş konuşma geçmişi',
                   'state': 'completed',
                   'seen': 'a public Copilot Chat export of a Turkish UI (no licence '
                           'to copy): 14 progressTask parts in one request'}],
 'mechanisms': [{'id': 'round-summary',
                 'copilot': '0.29 -',
                 'stores': 'result.metadata.toolCallRounds[k].summary: the text, on '
                           'the round the summary anchored on, when that round belongs '
                           'to the request'},
                {'id': 'background',
                 'copilot': '0.38 -',
                 'setting': 'github.copilot.chat.backgroundCompaction (experiment, '
                            'default off)',
                 'stores': "0.38-0.39: a 'Compacted conversation' marker (possibly in "
                           'a later request than the pass) and no metadata entry; from '
                           '0.40.2026031601 one summaries[] entry with source '
                           "'background'"},
                {'id': 'provider',
                 'copilot': '0.38.2026021602 -',
                 'setting': 'github.copilot.chat.responsesApiContextManagement.enabled '
                            '(experiment, default off)',
                 'stores': 'result.metadata.toolCallRounds[k].compaction = {type: '
                           "'compaction', id, encrypted_content}: no marker, no "
                           'summary text'},
                {'id': 'manual',
                 'copilot': '0.38.2026020908 -',
                 'stores': "/compact: progressMessage + markdown 'Compacted "
                           "conversation.'; result.metadata.summary"}]}
