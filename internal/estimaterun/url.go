package estimaterun

import (
	"fmt"
	"net/url"

	"github.com/loadlens/loadlens/internal/plan"
)

// splitBaseURL splits http://host:port/path into the base URL and the path.
func splitBaseURL(raw string) (base, path string, err error) {
	if raw == "" {
		return "", "", fmt.Errorf("--url is needed with --write: the endpoint the test calls, e.g. http://127.0.0.1:8080/feed")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", fmt.Errorf("--url %q: want http(s)://host[:port]/path", plan.Redact(raw))
	}
	path = u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	return u.Scheme + "://" + u.Host, path, nil
}
