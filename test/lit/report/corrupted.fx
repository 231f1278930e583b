# A corrupted copy of one dump among good ones: its row names the file, line and column of the
# problem, the other rows are still reported, and the exit status is 2.
# RUN: rm -rf %t && mkdir -p %t
# RUN: cp -r %corpus/grammar %t/grammar && chmod -R u+w %t
# RUN: head -c 400 %corpus/grammar/nested_and_getattr.fx > %t/grammar/nested_truncated.fx
# RUN: %expect-exit 2 %declone report %t -q | %FileCheck %s
# CHECK: {{^}}channels_last_and_offset.fx 1 8 3
# CHECK: {{^}}nested_and_getattr.fx 1 17
# CHECK-NEXT: {{^}}nested_truncated.fx - - - {{.*}} {{.*}}/grammar/nested_truncated.fx:[[#]]:[[#]]: error: {{.+}}
# CHECK-NEXT: {{^}}symbolic_max_min.fx 1
# CHECK: {{^}}total 5 51 
# CHECK-NEXT: {{^6 files; 1 could not be read$}}

# Binary files, empty files, paths that do not exist: never a crash. A file that holds no graph
# (PyTorch's debug folders put output_code.py and logs beside the graphs) is skipped and counted,
# found in a folder or named (named, with a warning); a damaged graph, and any *.fx file (graph
# text by its name), is a row with its error.
# RUN: head -c 3000 %declone > %t/grammar/binary.py
# RUN: : > %t/grammar/empty.fx
# RUN: %expect-exit 2 %declone report %t/grammar/binary.py %t/grammar/empty.fx %t/missing.py -q > %t/bad.out 2> %t/bad.err
# RUN: %FileCheck %s --check-prefix=BAD < %t/bad.out
# RUN: %FileCheck %s --check-prefix=BAD-WARN < %t/bad.err
# BAD-NOT: binary.py
# BAD-DAG: empty.fx - {{.*}}/grammar/empty.fx:1:1: error: no graph found
# BAD-DAG: missing.py - {{.*}}/missing.py: error: cannot open: No such file or directory
# BAD: {{^2 files, 2 rows; 1 skipped \(not a graph dump\); 2 could not be read$}}
# BAD-WARN: declone report: warning: {{.*}}/grammar/binary.py: not a graph dump (no graph module or 'def forward'), skipped
# RUN: %expect-exit 2 %declone report %t -q | %FileCheck %s --check-prefix=SKIPPED
# SKIPPED-NOT: binary.py
# SKIPPED: empty.fx - {{.*}}/grammar/empty.fx:1:1: error: no graph found
# SKIPPED: {{^8 files; 1 skipped \(not a graph dump\); 2 could not be read$}}

# JSON carries the same errors, and the exit status is still 2.
# RUN: %expect-exit 2 %declone report %t/grammar/empty.fx -q --json | %FileCheck %s --check-prefix=JSON
# JSON: {"name": "{{.*}}/grammar/empty.fx", "file": {{.*}}, "same_as": null, "graphs": 0, {{.*}}, "error": "{{.*}}/grammar/empty.fx:1:1: error: no graph found: expected 'class' or 'def forward'"}
# JSON: "total": {"files": 1, "rows": 1, "errors": 1,

# A folder with no dumps is not an error: an empty table and a warning.
# RUN: mkdir -p %t/nothing-here && touch %t/nothing-here/notes.md
# RUN: %declone report %t/nothing-here 2>&1 | %FileCheck %s --check-prefix=EMPTY
# EMPTY: declone report: warning: no graph dumps (*.py, *.fx, *.txt, *.log) found
# EMPTY: {{^total }}
# EMPTY: {{^0 files$}}
def forward(self, x):
    return (x,)
