// Package output sends a run's per-second figures to the metrics stores a
// team already runs (Prometheus remote write, InfluxDB, OTLP) while the run
// lasts. It is fed the snapshots the collector takes; the engine knows
// nothing of it. Every sink has a bounded queue: a slow or dead store loses
// seconds, counted, and never slows the load.
package output
