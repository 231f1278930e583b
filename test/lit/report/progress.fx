# Progress goes to standard error. When it is not a terminal (here, a pipe) it is plain lines:
# the first file at once, then at most one line per 100 ms, and always the final count with the
# time taken. --quiet (-q) turns it off. The table on standard output is unaffected.
# RUN: %declone report %corpus/grammar %s 2>&1 >/dev/null | %FileCheck %s
# CHECK: {{^}}report: 1/6 files{{$}}
# CHECK-NOT: {{\r}}
# CHECK: {{^}}report: 6/6 files in {{[0-9]+\.[0-9]+}} s{{$}}
# CHECK-NOT: report:
# RUN: %declone report %corpus/grammar %s -q 2>&1 >/dev/null | count 0
# RUN: %declone report %corpus/grammar %s --quiet 2>&1 >/dev/null | count 0
def forward(self, x):
    return (x,)
