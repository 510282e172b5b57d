package output

import "github.com/loadlens/loadlens/internal/plan"

// Name returns the output as KIND=URL with its credentials masked, for
// messages and the summary (plan.RedactOutput's: InfluxDB 1.x's u and p too).
func Name(o plan.Output) string { return o.Kind + "=" + plan.RedactOutput(o.URL) }
