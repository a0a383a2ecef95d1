kernel-1.traceg.xz
kernel-3.traceg.xz
