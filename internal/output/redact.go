package output

import (
	"regexp"

	"github.com/loadlens/loadlens/internal/plan"
)

// influxCredentials are InfluxDB 1.x's u and p query parameters, which
// plan.Redact does not know: elsewhere p and u are pages and users.
var influxCredentials = regexp.MustCompile(`([?&])(u|p)=[^&#]*`)

// Name returns the output as KIND=URL with its credentials masked, for
// messages and the summary: plan.Redact's, and InfluxDB 1.x's u and p.
func Name(o plan.Output) string {
	return o.Kind + "=" + plan.Redact(influxCredentials.ReplaceAllString(o.URL, "${1}${2}="+plan.RedactedInURL))
}
