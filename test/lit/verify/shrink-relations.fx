# Shrinking must not hide a difference the printed sizes show. Each pair below is a rewrite
# that drops a clone and differs only through a relation between sizes: shrinking is forced
# (--budget 0 --shrink-floor 2), the unrelated [8192, 64] input shrinks, and the sizes the
# relation involves either keep their values or shrink together keeping it.
#
# Overlapping places: narrow [0, 3000) and slice [-2000:] of 4096 overlap, so writing through
# the dropped clone's narrow changes what the slice reads. 4096 stays above 3000 + 2000 - 4096.
# RUN: %expect-exit 1 %declone verify -q --budget 0 --shrink-floor 2 --donated 0 %S/Inputs/shrink-overlap.fx %S/Inputs/shrink-overlap-dropped.fx | %FileCheck %s --check-prefix=OVERLAP
# OVERLAP: not equivalent to {{.*}}shrink-overlap.fx: output 0: values differ {{.*}} (ran with 8192 -> {{[0-9]+}}, 4096 -> {{[0-9]+}}, 2000 -> {{[0-9]+}}, 64 -> {{[0-9]+}}){{$}}
#
# The same place by two names: select(-1) and select(4095) of 4096 rows stay one row, although
# 4095 is also the size of an unrelated input.
# RUN: %expect-exit 1 %declone verify -q --budget 0 --shrink-floor 2 --donated 0 %S/Inputs/shrink-lastrow.fx %S/Inputs/shrink-lastrow-dropped.fx | %FileCheck %s --check-prefix=LASTROW
# LASTROW: not equivalent to {{.*}}shrink-lastrow.fx: output 0: values differ {{.*}} (ran with 8192 -> {{[0-9]+}}){{$}}
#
# A threshold: where(arange(4096) >= 3000, x, 0) reads x only past 3000; 4096 stays above it.
# RUN: %expect-exit 1 %declone verify -q --budget 0 --shrink-floor 2 %S/Inputs/shrink-mask.fx %S/Inputs/shrink-mask-dropped.fx | %FileCheck %s --check-prefix=MASK
# MASK: not equivalent to {{.*}}shrink-mask.fx: output 0: values differ {{.*}} (ran with 8192 -> {{[0-9]+}}, 4096 -> 3{{[0-9][0-9][0-9]}}, 64 -> {{[0-9]+}}){{$}}
#
# A pinned value: tril(x, -3000) of 4096 rows is zero above row 3000; 4096 stays above 3000.
# RUN: %expect-exit 1 %declone verify -q --budget 0 --shrink-floor 2 %S/Inputs/shrink-band.fx %S/Inputs/shrink-band-dropped.fx | %FileCheck %s --check-prefix=BAND
# BAND: not equivalent to {{.*}}shrink-band.fx: output 0: values differ {{.*}} (ran with 8192 -> {{[0-9]+}}, 4096 -> 3{{[0-9][0-9][0-9]}}, 64 -> {{[0-9]+}}){{$}}
#
# A bound only the rewrite has: its slices at 3000 of 4096 constrain the plan as the original's
# would.
# RUN: %expect-exit 1 %declone verify -q --budget 0 --shrink-floor 2 %S/Inputs/shrink-afteronly.fx %S/Inputs/shrink-afteronly-dropped.fx | %FileCheck %s --check-prefix=AFTER
# AFTER: not equivalent to {{.*}}shrink-afteronly.fx: output 0: values differ {{.*}} (ran with 8192 -> {{[0-9]+}}, 4096 -> 3{{[0-9][0-9][0-9]}}, 64 -> {{[0-9]+}}){{$}}
#
# The flags: --full-size takes no budget, and a budget is finite.
# RUN: %expect-exit 2 %declone verify --full-size --budget 1G %S/Inputs/shrink-mask.fx %S/Inputs/shrink-mask.fx 2>&1 | %FileCheck %s --check-prefix=FULL-BUDGET
# FULL-BUDGET: error: --full-size runs at the printed sizes: --budget, --time-budget and --shrink-floor do not apply
# RUN: %expect-exit 2 %declone verify --time-budget inf %S/Inputs/shrink-mask.fx %S/Inputs/shrink-mask.fx 2>&1 | %FileCheck %s --check-prefix=TIME
# TIME: error: --time-budget takes a number of seconds, not 'inf'
# RUN: %expect-exit 2 %declone verify --shrink-floor 1 %S/Inputs/shrink-mask.fx %S/Inputs/shrink-mask.fx 2>&1 | %FileCheck %s --check-prefix=FLOOR
# FLOOR: error: --shrink-floor takes a whole number of 2 or more
# RUN: %expect-exit 2 %declone verify --budget lots %S/Inputs/shrink-mask.fx %S/Inputs/shrink-mask.fx 2>&1 | %FileCheck %s --check-prefix=BUDGET
# BUDGET: error: --budget takes a size such as 512M or 2G, not 'lots'
