package mock

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// maxAdminBody bounds an admin request's body.
const maxAdminBody = 64 << 10

// admin serves the admin API under the config's prefix:
//
//	GET  /metrics          the Prometheus exposition
//	GET  /routes           every route with its current latency, errors and bandwidth
//	PUT  /routes/{name}    change one route's latency, errors or bandwidth (YAML or JSON)
//	PUT  /routes           the same for every route
//	POST /reset            every route back to its configured behaviour
func (h *handler) admin(w http.ResponseWriter, r *http.Request) {
	sub := strings.TrimPrefix(r.URL.Path, h.cfg.Admin)
	if code, msg := h.adminRefusal(r, sub); code != 0 {
		if code == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="loadlens mock admin"`)
		}
		http.Error(w, msg, code)
		return
	}
	switch {
	case sub == "/metrics" && isRead(r):
		h.metrics(w)
	case (sub == "" || sub == "/") && isRead(r):
		w.Header()["Content-Type"] = textPlain
		fmt.Fprintf(w, "loadlens mock admin API\n\nGET  %[1]s/metrics\nGET  %[1]s/routes\nPUT  %[1]s/routes/{name}  {latency, errors, bandwidth}\nPUT  %[1]s/routes         the same for every route\nPOST %[1]s/reset\n", h.cfg.Admin)
	case sub == "/routes" && isRead(r):
		h.writeRoutes(w, h.cfg.Routes)
	case sub == "/routes" && isWrite(r):
		h.change(w, r, h.cfg.Routes)
	case strings.HasPrefix(sub, "/routes/"):
		name := strings.TrimPrefix(sub, "/routes/")
		var rt *Route
		for _, x := range h.cfg.Routes {
			if x.Name == name {
				rt = x
			}
		}
		switch {
		case rt == nil:
			http.Error(w, fmt.Sprintf("loadlens mock: no route named %q (GET %s/routes lists them)", name, h.cfg.Admin), http.StatusNotFound)
		case isRead(r):
			h.writeRoutes(w, []*Route{rt})
		case isWrite(r):
			h.change(w, r, []*Route{rt})
		default:
			http.Error(w, "loadlens mock: use GET or PUT", http.StatusMethodNotAllowed)
		}
	case sub == "/reset" && r.Method == http.MethodPost:
		for _, rt := range h.cfg.Routes {
			rt.behavior.Store(&rt.initial)
		}
		h.writeRoutes(w, h.cfg.Routes)
	default:
		http.Error(w, fmt.Sprintf("loadlens mock: no admin endpoint %s %s (GET %s/ lists them)", r.Method, r.URL.Path, h.cfg.Admin), http.StatusNotFound)
	}
}

func isRead(r *http.Request) bool { return r.Method == http.MethodGet || r.Method == http.MethodHead }

func isWrite(r *http.Request) bool {
	return r.Method == http.MethodPut || r.Method == http.MethodPost || r.Method == http.MethodPatch
}

// change applies the request's latency, errors and bandwidth to routes:
// keys left out keep their value, null removes one. The body is checked as
// strictly as the config file, and nothing changes when it has an error.
func (h *handler) change(w http.ResponseWriter, r *http.Request, routes []*Route) {
	src, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxAdminBody))
	if err != nil {
		http.Error(w, "loadlens mock: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	noEnv := func(string) (string, bool) { return "", false } // the process's environment is not the admin's to read
	d := yamldoc.New("request body", noEnv)
	_, root, ok := d.Read(src)
	var next []Behavior
	if ok {
		p := &configParser{d: d, env: noEnv}
		if o, ok := d.Object(root, "a mapping with latency, errors or bandwidth", behaviorKeys); ok {
			if len(o.Fields) == 0 && !d.Errs.Failed() {
				d.Errorf(root, "give latency, errors or bandwidth to change")
			}
			for _, rt := range routes {
				next = append(next, p.behavior(o, *rt.behavior.Load()))
			}
		}
	}
	if err := d.Errs.Result(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for i, rt := range routes {
		rt.behavior.Store(&next[i])
	}
	h.writeRoutes(w, routes)
}

// routeInfo is a route as the admin API shows it.
type routeInfo struct {
	Name      string      `json:"name"`
	Method    string      `json:"method"`
	Path      string      `json:"path"`
	Status    int         `json:"status"`
	Latency   any         `json:"latency"`
	Errors    []faultInfo `json:"errors"`
	Bandwidth string      `json:"bandwidth,omitempty"`
	Requests  uint64      `json:"requests"`
}

type faultInfo struct {
	Rate   string `json:"rate"`
	Status []int  `json:"status,omitempty"`
	Reset  bool   `json:"reset,omitempty"`
	Body   string `json:"body,omitempty"`
}

// writeRoutes writes routes as JSON, in the form the admin API accepts back.
func (h *handler) writeRoutes(w http.ResponseWriter, routes []*Route) {
	out := make([]routeInfo, 0, len(routes))
	for _, rt := range routes {
		b := rt.behavior.Load()
		info := routeInfo{Name: rt.Name, Method: rt.Method, Path: rt.Path, Status: rt.Status, Latency: b.Latency.Config(), Errors: []faultInfo{}}
		if info.Method == "" {
			info.Method = "ANY"
		}
		for _, f := range b.Faults {
			info.Errors = append(info.Errors, faultInfo{Rate: fmt.Sprintf("%g%%", f.Rate*100), Status: f.Statuses, Reset: f.Reset, Body: f.Body})
		}
		if b.Bandwidth > 0 {
			info.Bandwidth = fmt.Sprintf("%gB/s", b.Bandwidth)
		}
		for i := range rt.stats.byStatus {
			info.Requests += rt.stats.byStatus[i].Load()
		}
		out = append(out, info)
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}
