package plan

import (
	"path/filepath"
	"time"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// LoadOverride is k6's -u/-d/-i given with a test file: every scenario
// runs this load instead of the one it writes, from the run's start, as
// k6's command-line shortcuts replace a script's options.
type LoadOverride struct {
	VUs        int           // VUs; 0: 1
	Duration   time.Duration // how long VUs run; with Iterations, the most they may take (0: DefaultMaxDuration)
	Iterations int64         // iterations shared by the VUs; 0: VUs for Duration
}

// IsZero reports whether no override was given.
func (o LoadOverride) IsZero() bool { return o == LoadOverride{} }

// ParseFileOverride is ParseFileFor with every scenario's load replaced
// by o (none when o is zero).
func ParseFileOverride(m Machine, path string, env func(string) (string, bool), o LoadOverride) (*Plan, error) {
	src, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	return ParseOverride(m, path, src, env, o)
}

// ParseOverride is ParseFor with every scenario's load replaced by o.
func ParseOverride(m Machine, file string, src []byte, env func(string) (string, bool), o LoadOverride) (*Plan, error) {
	p := &parser{file: file, dir: filepath.Dir(file), Doc: yamldoc.New(file, env), machine: m, override: o}
	return p.parse(src)
}

// overridden returns the load o gives a scenario, and the VUs it needs.
func (o LoadOverride) load() (Load, vuNeed) {
	vus := max(o.VUs, 1)
	if o.Iterations > 0 {
		d := o.Duration
		if d == 0 {
			d = DefaultMaxDuration
		}
		return Load{Model: Iterations, VUCount: vus, Count: o.Iterations, MaxDuration: d}, vuNeed{vus: vus}
	}
	return Load{Model: VUs, StartVUs: vus, Stages: []Stage{{Duration: o.Duration, Target: float64(vus)}}}, vuNeed{vus: vus}
}

// applyOverride replaces scenario s's load and start with the override's.
func (p *parser) applyOverride(s *Scenario) {
	var need vuNeed
	s.Load, need = p.override.load()
	s.StartTime = 0
	p.needs[s] = need
	p.layout.layout.Scenarios[s.ID].Model = s.Load.Model.String()
}
