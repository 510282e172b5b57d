// Package runs reads the past runs under a results directory: `loadlens
// runs` lists them, `loadlens export` writes one's per-second data.
package runs
