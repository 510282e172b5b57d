package cli

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestStoredArgsRedactsSecrets(t *testing.T) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var l listFlag
	fs.Var(&l, "e", "")
	fs.Var(&l, "H", "")
	fs.String("dashboard-token", "", "")
	fs.String("postgres", "", "")
	fs.Bool("quiet", false, "")
	fs.Int("vus", 0, "")
	tests := []struct{ in, want []string }{
		{[]string{"run", "http://h/x", "-H", "Authorization: Bearer s3cret", "-H", "Accept: json", "-e", "TOKEN=s3cret", "--vus", "2"},
			[]string{"loadlens", "run", "http://h/x", "-H", "Authorization: [REDACTED]", "-H", "Accept: json", "-e", "TOKEN=[REDACTED]", "--vus", "2"}},
		{[]string{"run", "t.yaml", "--e=K=s3cret", "-H=x-api-key: s3cret", "--H", "X-Trace: {{ env.T }}", "-H", "Authorization: Bearer {{ env.T }}"},
			[]string{"loadlens", "run", "t.yaml", "--e=K=[REDACTED]", "-H=x-api-key: [REDACTED]", "--H", "X-Trace: {{ env.T }}", "-H", "Authorization: Bearer {{ env.T }}"}},
		{[]string{"run", "--quiet", "-e", "s3cretNOEQUALS", "--dashboard-token", "s3cret", "--dashboard-token=s3cret"},
			[]string{"loadlens", "run", "--quiet", "-e", "[REDACTED]", "--dashboard-token", "[REDACTED]", "--dashboard-token=[REDACTED]"}},
		{[]string{"demo", "--postgres", "postgres://app:s3cret@db:5432/shop", "--postgres", "host=db password=s3cret user=app"},
			[]string{"loadlens", "demo", "--postgres", "postgres://app:REDACTED@db:5432/shop", "--postgres", "host=db password=[REDACTED] user=app"}},
		{[]string{"run", "--", "http://user:s3cret@h/x"},
			[]string{"loadlens", "run", "--", "http://user:REDACTED@h/x"}},
	}
	for _, tt := range tests {
		got := storedArgs(fs, tt.in)
		if !slices.Equal(got, tt.want) {
			t.Errorf("storedArgs(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
		if strings.Contains(strings.Join(got, " "), "s3cret") {
			t.Errorf("the stored command line holds the secret: %q", got)
		}
	}
}
