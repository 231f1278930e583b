# The command line: help, unknown commands and options, missing files; exit status 2 for
# every usage problem.
# RUN: %declone --help | %FileCheck %s --check-prefix=HELP
# HELP: usage: declone COMMAND
# HELP: print
# RUN: %declone print --help | %FileCheck %s --check-prefix=PRINTHELP
# PRINTHELP: usage: declone print FILE|-
# RUN: %expect-exit 2 %declone frobnicate 2>&1 | %FileCheck %s --check-prefix=UNKNOWN
# UNKNOWN: declone: error: unknown command 'frobnicate'
# RUN: %expect-exit 2 %declone print --bogus %s 2>&1 | %FileCheck %s --check-prefix=OPTION
# OPTION: declone print: error: unknown option '--bogus'
# RUN: %expect-exit 2 %declone print 2>&1 | %FileCheck %s --check-prefix=MISSING
# MISSING: declone print: error: missing argument FILE|-
# RUN: %expect-exit 2 %declone print %t.does-not-exist 2>&1 | %FileCheck %s --check-prefix=NOFILE
# NOFILE: does-not-exist: error: cannot open: No such file or directory
# RUN: %expect-exit 2 %declone 2>&1 | %FileCheck %s --check-prefix=NOARGS
# NOARGS: usage: declone COMMAND
def forward(self, x):
    return (x,)
