package output

import (
	"net/url"

	"github.com/loadlens/loadlens/internal/plan"
)

// secretParams are query parameters that carry credentials (InfluxDB 1.x's
// u and p, and tokens some proxies take).
var secretParams = []string{"p", "password", "token", "u"}

// Name returns the output as KIND=URL with its credentials masked, for
// messages and the summary.
func Name(o plan.Output) string {
	u, err := url.Parse(o.URL)
	if err != nil {
		return o.Kind
	}
	q := u.Query()
	for _, k := range secretParams {
		if q.Has(k) {
			q.Set(k, "xxxxx")
		}
	}
	u.RawQuery = q.Encode()
	return o.Kind + "=" + u.Redacted()
}
