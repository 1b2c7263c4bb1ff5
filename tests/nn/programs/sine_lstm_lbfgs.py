"""pytorch/examples' time_sequence_prediction in small: two LSTMCells and a Linear in float64 (model.double()) learn
shifted sine waves, stepped through time one column at a time (input.split(1, dim=1)), optimized by LBFGS with a
closure that prints every evaluation's loss; the training forward runs compiled, the prediction (which runs on into
the future from its own outputs) eagerly under no_grad. A test also checks torch.load of a numpy array needs
weights_only=False, as the real script's data file does."""
import io

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

HIDDEN = 12


class Sequence(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm1 = nn.LSTMCell(1, HIDDEN)
        self.lstm2 = nn.LSTMCell(HIDDEN, HIDDEN)
        self.linear = nn.Linear(HIDDEN, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), HIDDEN, dtype=torch.double)
        c_t = torch.zeros(input.size(0), HIDDEN, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), HIDDEN, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), HIDDEN, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)


np.random.seed(2)
T, L, N = 20, 12, 5
x = np.empty((N, L), "int64")
x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
buffer = io.BytesIO()
torch.save(np.sin(x / 1.0 / T).astype("float64"), buffer)
buffer.seek(0)
try:
    torch.load(buffer)
except Exception as e:
    print("weights-only load refused:", type(e).__name__)
buffer.seek(0)
data = torch.load(buffer, weights_only=False)
input, target = torch.from_numpy(data[2:, :-1]), torch.from_numpy(data[2:, 1:])
test_input, test_target = torch.from_numpy(data[:2, :-1]), torch.from_numpy(data[:2, 1:])

torch.manual_seed(0)
seq = Sequence()
seq.double()
compiled = torch.compile(seq)
criterion = nn.MSELoss()
optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=6)
for i in range(2):
    print("STEP:", i)

    def closure():
        optimizer.zero_grad()
        loss = criterion(compiled(input), target)
        print("loss: %.9f" % loss.item())
        loss.backward()
        return loss

    optimizer.step(closure)
    with torch.no_grad():
        future = 5
        pred = seq(test_input, future=future)
        print("test loss: %.9f" % criterion(pred[:, :-future], test_target).item())
        print("prediction tail:", [round(v, 8) for v in pred[0, -3:].tolist()])
