// Package estimaterun is `loadlens estimate`: the instances a target rate
// needs, from a capacity search or a past run, computed by the pure
// internal/estimate, and a test at that rate when asked.
package estimaterun
