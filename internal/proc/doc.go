// Package proc reads what the operating system counts of this process and
// its host: the process's CPU time, its open file descriptors, and the
// host's CPU time by mode from /proc/stat. It is a leaf: every package
// that measures the generator itself reads these here, once.
package proc
