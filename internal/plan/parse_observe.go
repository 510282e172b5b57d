package plan

import (
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// observeKeys and observeTargetKeys are the keys of the observe section and
// of one of its targets.
var (
	observeKeys       = []string{"interval", "targets", "traces"}
	observeTargetKeys = []string{"name", "url", "preset", "labels", "interval", "series", "kube"}
	kubeKeys          = []string{"namespace", "deployment", "hpa", "pods"}
)

// targetNamePattern is what a target's name may contain: it becomes a label
// value and names the target in messages; ':' allows the host:port default.
var targetNamePattern = regexp.MustCompile(`^[A-Za-z0-9._:-]+$`)

// labelNamePattern is a Prometheus label name.
var labelNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// kubeNamePattern is a Kubernetes object name (RFC 1123 subdomain), or a
// prefix of one: a pod prefix may end in '-'.
var kubeNamePattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]*)$`)

// observe parses the observe section.
func (p *parser) observe(n yamldoc.Node) Observe {
	obs := Observe{Interval: DefaultObserveInterval}
	o, ok := p.Object(n, "a mapping with interval, targets and traces", observeKeys)
	if !ok {
		return obs
	}
	if v, ok := o.Get("interval"); ok {
		if d, ok := p.observeInterval(v); ok {
			obs.Interval = d
		}
	}
	if v, ok := o.Get("traces"); ok {
		obs.Traces = p.observeTraces(v)
	}
	t, ok := o.Get("targets")
	if !ok {
		if !o.Has("traces") {
			p.Errs.Missing(n.Key, n.Path, n.Path, "missing key \"targets\": the Prometheus endpoints to scrape")
		}
		return obs
	}
	items, ok := p.List(t, "a list of targets, each a mapping with url and optionally name, preset, labels, interval, series")
	if !ok {
		return obs
	}
	if len(items) == 0 {
		p.Errs.Add(t.Pos, t.Path, "needs at least one target; leave observe out to scrape nothing")
		return obs
	}
	names := map[string]string{} // name → path of the target that has it
	for _, item := range items {
		tg, at, ok := p.observeTarget(item, obs.Interval)
		if !ok {
			continue
		}
		if first, dup := names[tg.Name]; dup {
			p.Errs.Add(at.Pos, at.Path, "target name %q is already used by %s; give each target its own name", tg.Name, first)
			continue
		}
		names[tg.Name] = item.Path
		obs.Targets = append(obs.Targets, tg)
	}
	return obs
}

// observeTarget parses one target; at is where its name is written, or its
// URL when the name is derived from it, for the duplicate-name error.
func (p *parser) observeTarget(n yamldoc.Node, interval time.Duration) (tg ObserveTarget, at yamldoc.Node, ok bool) {
	o, ok := p.Object(n, "a target (a mapping with url, and optionally name, preset, labels, interval, series)", observeTargetKeys)
	if !ok {
		return tg, n, false
	}
	ok = true
	tg.Interval = interval
	u, hasURL := o.Get("url")
	if !hasURL {
		p.Errs.Missing(n.Key, n.Path, n.Path, "missing key \"url\": the endpoint to scrape, like http://127.0.0.1:9100/metrics")
		ok = false
	} else if tg.URL, ok = p.observeURL(u); ok {
		tg.Name, at = tg.URL, u
		if parsed, err := url.Parse(tg.URL); err == nil {
			tg.Name = parsed.Host
		}
	}
	if v, has := o.Get("name"); has {
		at = v
		s, valid := p.NonEmpty(v, "a name")
		switch {
		case !valid:
			ok = false
		case !targetNamePattern.MatchString(s):
			p.Errs.Add(v.Pos, v.Path, "target name %q may only use letters, digits, '.', '_', ':' and '-'", s)
			ok = false
		default:
			tg.Name = s
		}
	}
	if v, has := o.Get("preset"); has {
		s, valid := p.OneOf(v, ObservePresets()...)
		tg.Preset, ok = s, ok && valid
	}
	if v, has := o.Get("labels"); has {
		tg.Labels = p.observeLabels(v)
	}
	if v, has := o.Get("interval"); has {
		if d, valid := p.observeInterval(v); valid {
			tg.Interval = d
		}
	}
	if v, has := o.Get("series"); has {
		tg.Series = p.selectors(v)
	}
	kube, hasKube := o.Get("kube")
	switch {
	case hasKube && !KubePreset(tg.Preset):
		p.Errs.Add(kube.Key, kube.Path, "kube selects the workload of preset %s or %s; this target's preset is %q", PresetKubeStateMetrics, PresetCAdvisor, tg.Preset)
		ok = false
	case hasKube:
		tg.Kube = p.kubeSelect(kube)
		ok = ok && tg.Kube != nil
	case KubePreset(tg.Preset):
		p.Errs.Missing(n.Key, n.Path, n.Path, "missing key \"kube\": preset %s reads the whole cluster; name the workload, like kube: {namespace: shop, deployment: product-api}", tg.Preset)
		ok = false
	}
	return tg, at, ok
}

// kubeSelect parses a target's kube section; nil when it is wrong.
func (p *parser) kubeSelect(n yamldoc.Node) *KubeSelect {
	o, ok := p.Object(n, "a mapping with namespace and optionally deployment, hpa, pods", kubeKeys)
	if !ok {
		return nil
	}
	ks := &KubeSelect{}
	fields := map[string]*string{"namespace": &ks.Namespace, "deployment": &ks.Deployment, "hpa": &ks.HPA, "pods": &ks.Pods}
	for _, k := range kubeKeys {
		v, has := o.Get(k)
		if !has {
			continue
		}
		s, valid := p.NonEmpty(v, "a Kubernetes name")
		if !valid {
			return nil
		}
		if !kubeNamePattern.MatchString(s) {
			p.Errs.Add(v.Pos, v.Path, "%q is not a Kubernetes name: lowercase letters, digits, '-' and '.'", s)
			return nil
		}
		*fields[k] = s
	}
	if ks.Namespace == "" {
		p.Errs.Missing(n.Key, n.Path, n.Path, "missing key \"namespace\": the namespace of the workload under test")
		return nil
	}
	if ks.HPA == "" {
		ks.HPA = ks.Deployment
	}
	if _, has := o.Get("pods"); !has && ks.Deployment != "" {
		ks.Pods = ks.Deployment + "-"
	}
	return ks
}

// observeInterval returns a scrape interval of at least MinObserveInterval.
func (p *parser) observeInterval(n yamldoc.Node) (time.Duration, bool) {
	d, ok := p.Duration(n)
	if ok && d < MinObserveInterval {
		p.Errs.Add(n.Pos, n.Path, "must be at least %s (scrapes are aligned to the run's seconds), got %s", MinObserveInterval, yamldoc.ScalarText(n.V))
		return 0, false
	}
	return d, ok
}

// observeURL returns a target's constant URL; only env lookups may be templated.
func (p *parser) observeURL(n yamldoc.Node) (string, bool) {
	s, ok := p.NonEmpty(n, "a URL like http://127.0.0.1:9100/metrics")
	if !ok {
		return "", false
	}
	p.noteURLSecret(n)
	t, ok := p.Compile(n, s, &tmpl.Scope{Env: p.Env})
	if !ok {
		return "", false
	}
	c, isConst := t.Const()
	if !isConst {
		p.Errs.Add(n.Pos, n.Path, "a target URL is fixed for the whole run: only env lookups may be templated")
		return "", false
	}
	u, err := url.Parse(c)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.Errs.Add(n.Pos, n.Path, "bad target URL %q: expected http:// or https:// and a host, like http://127.0.0.1:9100/metrics", Redact(c))
		return "", false
	}
	if u.Fragment != "" {
		p.Errs.Add(n.Pos, n.Path, "target URL %q must not have a fragment (#...)", Redact(c))
		return "", false
	}
	return c, true
}

// observeLabels parses a target's labels, sorted by name.
func (p *parser) observeLabels(n yamldoc.Node) []series.Label {
	o, ok := p.Object(n, "a mapping of label names to values, like {role: app}", nil)
	if !ok {
		return nil
	}
	var out []series.Label
	for _, f := range o.Fields {
		switch {
		case !labelNamePattern.MatchString(f.Name):
			p.Errs.Add(f.Value.Key, f.Value.Path, "bad label name %q: use letters, digits and _, not starting with a digit", f.Name)
			continue
		case strings.HasPrefix(f.Name, "__"):
			p.Errs.Add(f.Value.Key, f.Value.Path, "label names starting with __ are reserved for Prometheus")
			continue
		case f.Name == "target":
			p.Errs.Add(f.Value.Key, f.Value.Path, "label \"target\" is set to the target's name; set name: instead")
			continue
		}
		v, ok := p.NonEmpty(f.Value, "a label value")
		if !ok {
			continue
		}
		out = append(out, series.Label{Name: f.Name, Value: v})
	}
	series.SortLabels(out)
	return out
}

// selectors parses a target's list of series selectors.
func (p *parser) selectors(n yamldoc.Node) []Selector {
	items, ok := p.List(n, "a list of series, each a metric name or a selector like 'name{label=\"value\"}'")
	if !ok {
		return nil
	}
	if len(items) == 0 {
		p.Errs.Add(n.Pos, n.Path, "needs at least one series; leave series out to keep every series")
		return nil
	}
	var out []Selector
	for _, item := range items {
		s, ok := p.NonEmpty(item, "a metric name or a selector like 'name{label=\"value\"}'")
		if !ok {
			continue
		}
		sel, err := parseSelector(s)
		if err != nil {
			var se *SelectorError
			if errors.As(err, &se) {
				p.Errs.Add(p.Src.PosAt(item.V, se.Offset), item.Path, "%s", se.Msg)
			} else {
				p.Errs.Add(item.Pos, item.Path, "%v", err)
			}
			continue
		}
		if slices.ContainsFunc(out, func(o Selector) bool { return o.Text == sel.Text }) {
			p.Errs.Add(item.Pos, item.Path, "series %s is listed twice", s)
			continue
		}
		out = append(out, sel)
	}
	return out
}
