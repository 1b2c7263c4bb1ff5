import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(999)
nz, ngf, ndf, nc = 8, 8, 8, 1
def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)
class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False), nn.Tanh())
    def forward(self, input):
        return self.main(input)
class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False), nn.Sigmoid())
    def forward(self, input):
        return self.main(input)
netG, netD = Generator(), Discriminator()
netG.apply(weights_init); netD.apply(weights_init)
G, D = torch.compile(netG), torch.compile(netD)
criterion = nn.BCELoss()
fixed_noise = torch.randn(4, nz, 1, 1)
optimizerD = optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
real = torch.rand(8, nc, 16, 16) * 2 - 1
for i in range(4):
    netD.zero_grad()
    label = torch.full((8,), 1.0)
    output = D(real).view(-1)
    errD_real = criterion(output, label)
    errD_real.backward()
    D_x = output.mean().item()
    noise = torch.randn(8, nz, 1, 1)
    fake = G(noise)
    label.fill_(0.0)
    output = D(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    errD = errD_real + errD_fake
    optimizerD.step()
    netG.zero_grad()
    label.fill_(1.0)
    output = D(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    optimizerG.step()
    print('[%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f' % (i, errD.item(), errG.item(), D_x))
with torch.no_grad():
    print(G(fixed_noise).detach().shape)
