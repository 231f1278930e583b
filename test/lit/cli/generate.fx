# The man page and the bash and zsh completions come from the same declarations as --help: every
# command and option appears, the scripts parse, and completing with them gives the options and
# the values an option lists. The build installs them under build/share.
# RUN: %declone generate man > %t.1
# RUN: %FileCheck %s --check-prefix=MAN < %t.1
# MAN: .TH DECLONE 1
# MAN: .SS "declone print FILE|\- [options]"
# MAN: .B \-o, \-\-output OUT
# MAN: .SS "declone opt FILE|\- [options]"
# MAN: .B \-\-remarks[=text|json]
# MAN: .SS "declone verify BEFORE AFTER [options]"
# MAN: .B \-\-int\-range LO:HI
# MAN: .SS "declone report PATH... [options]"
# MAN: .B \-j, \-\-jobs N
# MAN: .SS "declone schemas [PATTERN] [options]"
# MAN: .SH EXIT STATUS
# MAN: NO_COLOR
# RUN: sh -c 'cmp %t.1 "$(dirname "$(command -v declone)")/../share/man/man1/declone.1"'
# RUN: %declone generate bash > %t.bash
# RUN: bash -n %t.bash
# RUN: bash -c 'source %t.bash; COMP_WORDS=(declone opt --mo); COMP_CWORD=2; _declone; echo "${COMPREPLY[@]}"' | %FileCheck %s --check-prefix=BASHOPT
# BASHOPT: --mode
# RUN: bash -c 'source %t.bash; COMP_WORDS=(declone opt --mode ""); COMP_CWORD=3; _declone; echo "${COMPREPLY[@]}"' | %FileCheck %s --check-prefix=BASHVALUE
# BASHVALUE: safe vllm
# RUN: bash -c 'source %t.bash; COMP_WORDS=(declone opt --remarks=j); COMP_CWORD=2; _declone; echo "${COMPREPLY[@]}"' | %FileCheck %s --check-prefix=BASHATTACHED
# BASHATTACHED: --remarks=json
# RUN: bash -c 'source %t.bash; COMP_WORDS=(declone ver); COMP_CWORD=1; _declone; echo "${COMPREPLY[@]}"' | %FileCheck %s --check-prefix=BASHCMD
# BASHCMD: verify
# RUN: %declone generate zsh | %FileCheck %s --check-prefix=ZSH
# ZSH: #compdef declone
# ZSH: 'opt:remove redundant clones
# ZSH: '(-o --output)'{-o,--output}'[write the graph to OUT instead of standard output]:OUT:_files'
# ZSH: '--mode=[safe
# ZSH-SAME: :(safe vllm vllm-0.32)'
# RUN: %expect-exit 2 %declone generate fish 2>&1 | %FileCheck %s --check-prefix=BAD
# BAD: declone generate: error: expected 'man', 'bash' or 'zsh', not 'fish'
def forward(self, x):
    return (x,)
