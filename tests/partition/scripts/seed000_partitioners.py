import torch
from functorch.compile import aot_function, make_boxed_func, default_partition, min_cut_rematerialization_partition


def f(x):
    return x.sin().cos().sin().sum()


for name, partition_fn in (("default_partition", default_partition),
                           ("min_cut_rematerialization_partition", min_cut_rematerialization_partition)):
    graphs = {}

    def keep(tag):
        def compiler(gm, inputs):
            graphs[tag] = gm
            return make_boxed_func(gm.forward)
        return compiler

    x = torch.randn(8, requires_grad=True)
    aot_function(f, fw_compiler=keep("fw"), bw_compiler=keep("bw"), partition_fn=partition_fn)(x).backward()
    fw_outputs = len(graphs["fw"].graph.output_node().args[0])
    bw_inputs = len([n for n in graphs["bw"].graph.nodes if n.op == "placeholder"])
    print(f"{name}: forward returns {fw_outputs}, backward takes {bw_inputs}")
    print(graphs["fw"].code.strip())
    print(graphs["bw"].code.strip())
