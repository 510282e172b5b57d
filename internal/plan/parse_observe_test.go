package plan

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// minimal is a valid test without an observe section; observe cases append
// their section to it, so the section starts on line 4.
const minimal = `base_url: http://127.0.0.1:8080
scenarios:
  s: {rate: 1, duration: 1s, flow: [get: /x]}
`

func TestParseObserve(t *testing.T) {
	runValid(t, []validCase{
		{"no observe section", "t.yaml", minimal, func(t *testing.T, p *Plan) {
			if len(p.Observe.Targets) != 0 {
				t.Errorf("targets %+v, want none", p.Observe.Targets)
			}
		}},
		{"the documented example", "t.yaml", minimal + `observe:
  interval: 5s
  targets:
    - name: app
      url: http://127.0.0.1:8080/actuator/prometheus
      preset: spring
      labels: {role: app}
      interval: 1s
      series:
        - my_queue_depth
        - 'http_server_requests_seconds_count{uri="/apps/first-page"}'
        - '{__name__=~"hikaricp_.*"}'
    - url: http://127.0.0.1:9100/metrics
      preset: node
      labels: {role: db, zone: 2}
`, func(t *testing.T, p *Plan) {
			o := p.Observe
			if o.Interval != 5*time.Second || len(o.Targets) != 2 {
				t.Fatalf("interval %v, %d targets; want 5s and 2", o.Interval, len(o.Targets))
			}
			app, node := o.Targets[0], o.Targets[1]
			if app.Name != "app" || app.Preset != "spring" || app.Interval != time.Second || app.URL != "http://127.0.0.1:8080/actuator/prometheus" {
				t.Errorf("app target %+v", app)
			}
			if want := []series.Label{{Name: "role", Value: "app"}}; !reflect.DeepEqual(app.Labels, want) {
				t.Errorf("app labels %v, want %v", app.Labels, want)
			}
			var texts []string
			for _, s := range app.Series {
				texts = append(texts, s.Text)
			}
			if want := []string{"my_queue_depth", `http_server_requests_seconds_count{uri="/apps/first-page"}`, `{__name__=~"hikaricp_.*"}`}; !reflect.DeepEqual(texts, want) {
				t.Errorf("series %q, want %q", texts, want)
			}
			if node.Name != "127.0.0.1:9100" || node.Interval != 5*time.Second || node.KeepsAll() {
				t.Errorf("node target %+v: want the host:port name, the section's interval and a preset", node)
			}
			if want := []series.Label{{Name: "role", Value: "db"}, {Name: "zone", Value: "2"}}; !reflect.DeepEqual(node.Labels, want) {
				t.Errorf("node labels %v, want %v (sorted, numbers as text)", node.Labels, want)
			}
		}},
		{"defaults and env in the URL", "t.yaml", minimal + `observe:
  targets:
    - url: "http://{{ env('HOST', '127.0.0.1') }}:9187/metrics?x=1"
`, func(t *testing.T, p *Plan) {
			tg := p.Observe.Targets[0]
			if tg.URL != "http://127.0.0.1:9187/metrics?x=1" || tg.Name != "127.0.0.1:9187" || tg.Interval != DefaultObserveInterval {
				t.Errorf("target %+v: want the rendered URL, its host:port as name and the 5s default", tg)
			}
			if !tg.KeepsAll() || tg.Preset != "" || tg.Labels != nil {
				t.Errorf("target %+v: without preset and series it keeps every series", tg)
			}
		}},
		{"kube presets: defaults from the deployment, and explicit names", "t.yaml", minimal + `observe:
  targets:
    - name: ksm
      url: http://127.0.0.1:8080/metrics
      preset: kube-state-metrics
      kube: {namespace: shop, deployment: product-api}
    - name: kubelet
      url: http://127.0.0.1:8001/api/v1/nodes/n1/proxy/metrics/cadvisor
      preset: cadvisor
      kube: {namespace: shop, deployment: product-api, hpa: product-hpa, pods: product-api-7d9f}
    - name: all
      url: http://127.0.0.1:8081/metrics
      preset: cadvisor
      kube: {namespace: shop}
`, func(t *testing.T, p *Plan) {
			want := []KubeSelect{
				{Namespace: "shop", Deployment: "product-api", HPA: "product-api", Pods: "product-api-"},
				{Namespace: "shop", Deployment: "product-api", HPA: "product-hpa", Pods: "product-api-7d9f"},
				{Namespace: "shop"},
			}
			for i, tg := range p.Observe.Targets {
				if tg.Kube == nil || *tg.Kube != want[i] {
					t.Errorf("target %s: kube %+v, want %+v", tg.Name, tg.Kube, want[i])
				}
			}
		}},
	})
}

func TestParseObserveInvalid(t *testing.T) {
	tests := []struct {
		name string
		src  string // the observe section, starting on line 4
		want string
	}{
		{"not a mapping", "observe: [a]\n", "4:10: observe: expected a mapping with interval, targets and traces, got a list"},
		{"unknown key", "observe:\n  intervall: 5s\n  targets: [{url: http://h/m}]\n",
			`5:3: observe.intervall: unknown key "intervall"; did you mean "interval"? (allowed: interval, targets, traces)`},
		{"no targets key", "observe:\n  interval: 5s\n", `4:1: observe: missing key "targets": the Prometheus endpoints to scrape`},
		{"empty targets", "observe:\n  targets: []\n", "5:12: observe.targets: needs at least one target; leave observe out to scrape nothing"},
		{"interval below 1s", "observe:\n  interval: 500ms\n  targets: [{url: http://h/m}]\n",
			"5:13: observe.interval: must be at least 1s (scrapes are aligned to the run's seconds), got 500ms"},
		{"target interval below 1s", "observe:\n  targets:\n    - url: http://h/m\n      interval: 0\n",
			"7:17: observe.targets[0].interval: must be at least 1s (scrapes are aligned to the run's seconds), got 0"},
		{"bad interval", "observe:\n  interval: 5x\n  targets: [{url: http://h/m}]\n", `5:13: observe.interval: bad duration "5x" (use 500ms, 2s, 1m)`},
		{"target not a mapping", "observe:\n  targets: [http://h/m]\n",
			`5:13: observe.targets[0]: expected a target (a mapping with url, and optionally name, preset, labels, interval, series), got a string "http://h/m"`},
		{"target without url", "observe:\n  targets:\n    - name: app\n", `6:7: observe.targets[0]: missing key "url": the endpoint to scrape, like http://127.0.0.1:9100/metrics`},
		{"unknown target key", "observe:\n  targets:\n    - url: http://h/m\n      presets: node\n",
			`7:7: observe.targets[0].presets: unknown key "presets"; did you mean "preset"? (allowed: name, url, preset, labels, interval, series, kube)`},
		{"bad url scheme", "observe:\n  targets: [{url: ftp://h/m}]\n",
			`5:19: observe.targets[0].url: bad target URL "ftp://h/m": expected http:// or https:// and a host, like http://127.0.0.1:9100/metrics`},
		{"url with fragment", "observe:\n  targets: [{url: 'http://h/m#x'}]\n", `5:19: observe.targets[0].url: target URL "http://h/m#x" must not have a fragment (#...)`},
		{"url not constant", "observe:\n  targets: [{url: 'http://h/{{ vu }}'}]\n",
			"5:19: observe.targets[0].url: a target URL is fixed for the whole run: only env lookups may be templated"},
		{"url with an unset env", "observe:\n  targets: [{url: 'http://{{ env(\"NOPE\") }}/m'}]\n", `5:34: observe.targets[0].url: environment variable NOPE is not set (use env("NOPE", "default") for a default)`},
		{"preset typo", "observe:\n  targets: [{url: http://h/m, preset: sprnig}]\n",
			`5:39: observe.targets[0].preset: unknown value "sprnig"; did you mean "spring"? (use spring, node, postgres, mysql, redis, go, kube-state-metrics, cadvisor)`},
		{"kube preset without kube", "observe:\n  targets:\n    - url: http://h/m\n      preset: cadvisor\n",
			`6:7: observe.targets[0]: missing key "kube": preset cadvisor reads the whole cluster; name the workload, like kube: {namespace: shop, deployment: product-api}`},
		{"kube without a kube preset", "observe:\n  targets:\n    - url: http://h/m\n      preset: node\n      kube: {namespace: shop}\n",
			`8:7: observe.targets[0].kube: kube selects the workload of preset kube-state-metrics or cadvisor; this target's preset is "node"`},
		{"kube without namespace", "observe:\n  targets:\n    - url: http://h/m\n      preset: kube-state-metrics\n      kube: {deployment: api}\n",
			`8:7: observe.targets[0].kube: missing key "namespace": the namespace of the workload under test`},
		{"kube bad name", "observe:\n  targets:\n    - url: http://h/m\n      preset: kube-state-metrics\n      kube: {namespace: Shop}\n",
			`8:25: observe.targets[0].kube.namespace: "Shop" is not a Kubernetes name: lowercase letters, digits, '-' and '.'`},
		{"kube unknown key", "observe:\n  targets:\n    - url: http://h/m\n      preset: cadvisor\n      kube: {namespace: shop, pod: x}\n",
			`8:31: observe.targets[0].kube.pod: unknown key "pod"; did you mean "pods"? (allowed: namespace, deployment, hpa, pods)`},
		{"bad name", "observe:\n  targets: [{url: http://h/m, name: my app}]\n",
			`5:37: observe.targets[0].name: target name "my app" may only use letters, digits, '.', '_', ':' and '-'`},
		{"duplicate names", "observe:\n  targets:\n    - {url: http://h/a, name: app}\n    - {url: http://h/b, name: app}\n",
			`7:31: observe.targets[1].name: target name "app" is already used by observe.targets[0]; give each target its own name`},
		{"duplicate default names", "observe:\n  targets:\n    - url: http://h:1/a\n    - url: http://h:1/b\n",
			`7:12: observe.targets[1].url: target name "h:1" is already used by observe.targets[0]; give each target its own name`},
		{"labels not a mapping", "observe:\n  targets: [{url: http://h/m, labels: [role]}]\n",
			`5:39: observe.targets[0].labels: expected a mapping of label names to values, like {role: app}, got a list`},
		{"bad label name", "observe:\n  targets:\n    - url: http://h/m\n      labels: {1role: app}\n",
			`7:16: observe.targets[0].labels.1role: bad label name "1role": use letters, digits and _, not starting with a digit`},
		{"reserved label name", "observe:\n  targets:\n    - url: http://h/m\n      labels: {__x: app}\n",
			"7:16: observe.targets[0].labels.__x: label names starting with __ are reserved for Prometheus"},
		{"target label", "observe:\n  targets:\n    - url: http://h/m\n      labels: {target: x}\n",
			`7:16: observe.targets[0].labels.target: label "target" is set to the target's name; set name: instead`},
		{"empty label value", "observe:\n  targets:\n    - url: http://h/m\n      labels: {role: ''}\n",
			"7:22: observe.targets[0].labels.role: must not be empty"},
		{"series not a list", "observe:\n  targets:\n    - url: http://h/m\n      series: up\n",
			`7:15: observe.targets[0].series: expected a list of series, each a metric name or a selector like 'name{label="value"}', got a string "up"`},
		{"empty series", "observe:\n  targets:\n    - url: http://h/m\n      series: []\n",
			"7:15: observe.targets[0].series: needs at least one series; leave series out to keep every series"},
		{"selector with unquoted value", "observe:\n  targets:\n    - url: http://h/m\n      series: ['up{job=x}']\n",
			`7:24: observe.targets[0].series[0]: a label value must be quoted, like "GET" (or ` + "`raw`" + ` for regexes)`},
		{"selector with a bad regex", "observe:\n  targets:\n    - url: http://h/m\n      series:\n        - '{__name__=~\"a(\"}'\n",
			"8:23: observe.targets[0].series[0]: bad regex \"a(\": missing closing ): `a(`"},
		{"selector without a closing brace", "observe:\n  targets:\n    - url: http://h/m\n      series:\n        - 'up{job=\"x\"'\n",
			"8:22: observe.targets[0].series[0]: missing } at the end of the matchers"},
		{"empty braces", "observe:\n  targets:\n    - url: http://h/m\n      series: ['{}']\n",
			"7:17: observe.targets[0].series[0]: empty selector {}: name a metric or give a matcher like {__name__=~\"hikaricp_.*\"}"},
		{"series listed twice", "observe:\n  targets:\n    - url: http://h/m\n      series: [up, up]\n",
			"7:20: observe.targets[0].series[1]: series up is listed twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("testdata/t.yaml", []byte(minimal+tt.src), noEnv)
			var es yamldoc.Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, want Errors: %v", err, err)
			}
			want := "testdata/t.yaml:" + strings.ReplaceAll(tt.want, "\n", "\ntestdata/t.yaml:")
			if got := err.Error(); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
