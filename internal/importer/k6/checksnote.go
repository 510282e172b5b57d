package k6

import "github.com/loadlens/loadlens/internal/importer"

// noValue is the default of an extraction the import makes: what a miss
// sets, as k6's undefined makes nothing of it.
var noValue = ""

// checksNotes says how the test's checks rate compares with k6's: the
// extractions it made are no checks, and the setup's checks gate the run
// rather than count.
func (s *script) checksNotes() {
	extracts, setupChecks := false, false
	each := func(flow []importer.Step, setup bool) {
		importer.EachStep(flow, func(st *importer.Step) {
			extracts = extracts || len(st.Extract) > 0
			setupChecks = setupChecks || setup && len(st.Check) > 0
		})
	}
	each(s.t.Setup, true)
	for _, sc := range s.t.Scenarios {
		each(sc.Flow, false)
	}
	if extracts {
		s.t.Notes = append(s.t.Notes, "A value read from a response (res.json()) is extracted with default: '' (k6's undefined): a miss is no failed check, so the checks metric counts the script's check() calls, as k6's does.")
	}
	if setupChecks {
		s.t.Notes = append(s.t.Notes, "The setup's checks are not in the checks metric (k6 counts them): one that fails stops the run before the scenarios start.")
	}
}
