# A large graph is drawn as the neighbourhood of its clones: nodes within two uses or
# definitions of a clone, and the writes to the storages involved. Nodes with hidden neighbours
# say so, and the title says how much is shown. Nested subgraphs are clusters.
# RUN: %declone analyze %corpus/entangle/gpt__paral1_layer1__fw.g0.r0.py --dot %t.dot > /dev/null
# RUN: %FileCheck %s < %t.dot
# CHECK: [label="clone_4\naten.clone.default\nremoved (strides inferred)\ni64[1536, 8]", style="rounded,filled,bold", fillcolor="#b8e6a8"
# CHECK: not shown)"
# CHECK: label="{{.*}}gpt__paral1_layer1__fw.g0.r0.py: 7 clones, 2 removed, 5 kept\nneighbourhood of each clone (2 steps) and writes to its storage: {{[0-9]+}} of 168 nodes";
# RUN: dot -Tsvg %t.dot -o %t.svg

# RUN: %declone opt %corpus/grammar/nested_and_getattr.fx --dot %t.nested.dot > /dev/null
# RUN: %FileCheck %s --check-prefix=NESTED < %t.nested.dot
# NESTED: subgraph "cluster_m0_" {
# NESTED-NEXT: label="<lambda>";
# NESTED: m0_7 [label="invoke_subgraph", tooltip=
# NESTED: {{^    }}subgraph "cluster_m1_" {
# NESTED-NEXT: label="repeated_subgraph0";
# NESTED: m1_2 [label="add\naten.add.Tensor\nf32[8, 16][16, 1]cpu"
# NESTED: label="{{.*}}nested_and_getattr.fx: 0 clones, 0 removed, 0 kept";
def forward(self, x):
    return (x,)
