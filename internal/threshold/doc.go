// Package threshold parses and evaluates k6-style thresholds such as
// http_req_duration{endpoint:"GET /x"}: ["p(95) < 800ms"].
//
// A threshold is a metric key and an expression. The key is a metric name,
// optionally with a filter of tags: name{k:"v",k2:'v2',k3:bare}. The
// expression is "aggregation comparison value", e.g. p(99.9) <= 1.5s,
// rate < 1%, count > 100.
//
// Metrics come in four kinds, each with its aggregations:
//
//	trend   p(N) avg min max med count  http_req_duration, http_req_waiting,
//	                                    http_req_connecting, http_req_tls_handshaking,
//	                                    iteration_duration, scheduler_lag
//	rate    rate                        http_req_failed, checks
//	counter count rate (per second)     http_reqs, iterations, dropped_iterations,
//	                                    iterations_not_sent, data_sent, data_received
//	gauge   value min max               vus, vus_max
//
// The http_req_* metrics hold HTTP requests alone, as in k6: a session
// (SSE, WebSocket) or a gRPC call is measured by its protocol's own
// <protocol>_<fact> metrics (sse_session_duration, grpc_req_duration),
// though http_reqs and http_req_failed count it.
//
// Trend times are in milliseconds; values may carry a unit (us, µs, ms, s,
// m). Rates are ratios from 0 to 1, written as 0.01 or 1%.
//
// A threshold whose metric recorded no data fails, with Result.Reason
// NoData: k6 passes it, but a gate that nothing was measured for proves
// nothing, and a dead target must never pass one. The run model
// (metrics.Run.Evaluate) also fails latency thresholds whose requests all
// failed, or failed more often than a percentile leaves out, with
// Result.Reason saying why.
package threshold
