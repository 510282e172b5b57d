package dist

import (
	"fmt"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// implausibleKeys says why what second s, from an agent running a test of
// layout l, keys by a status or a kind cannot be what the agent's recorder
// made: a status no answer has, more error samples of a kind than a second
// keeps (metrics.MaxErrorSamples, as the agent's recorder keeps them; reasons not sent the decoder bounds so already) or counting more than the kind's failures, reasons
// not sent counting more than the iterations not sent, or requests kept by
// other statuses than the layout's. Unchecked, a tampered agent's statuses
// took the places a check's kept for the target's, and its counts were
// printed as the target's. nil when they can be.
func implausibleKeys(l *sample.Layout, s *metrics.Snapshot) error {
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		err := byStatusPast(l, e)
		if err == nil {
			err = samplesPast(e)
		}
		if err != nil {
			return fmt.Errorf("endpoint %q: %w", l.Endpoints[i].Name, err)
		}
	}
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		var n int64 // each at most sc.NotSent: no sum below overflows
		for _, es := range sc.NotSentWhy {
			if es.Count < 0 || es.Count > sc.NotSent-n {
				return fmt.Errorf("scenario %q: its reasons not sent count %s, of %s", l.Scenarios[i].Name,
					units.Count(n+max(es.Count, 0)), units.CountOf(sc.NotSent, "iteration not sent", "iterations not sent"))
			}
			n += es.Count
		}
	}
	for i := range s.Checks {
		for _, st := range s.Checks[i].Statuses {
			if !answerStatus(st.Status) {
				return fmt.Errorf("check %q: its outcomes on answers of status %d, %s", l.Checks[i].Name, st.Status, noAnswer)
			}
		}
	}
	return nil
}

// noAnswer says why a status is refused.
var noAnswer = fmt.Sprintf("which no answer has (%d to %d)", lowestStatus, highestStatus)

// answerStatus reports whether an answer can have status st.
func answerStatus(st int) bool { return st >= lowestStatus && st <= highestStatus }

// byStatusPast says why e's requests kept by status cannot be: kept by
// other statuses than the layout's, more than the second's requests, or
// a status's durations not its requests.
func byStatusPast(l *sample.Layout, e *metrics.EndpointSecond) error {
	if n := len(e.ByStatus); n != 0 && n != len(l.Statuses) {
		return fmt.Errorf("its requests by %s, where the test keeps them by %s",
			units.CountOf(int64(n), "status", "statuses"), units.Count(int64(len(l.Statuses))))
	}
	var sum int64 // at most e.Requests: no sum below overflows
	for j, f := range e.ByStatus {
		if f.Requests < 0 || f.Requests > e.Requests-sum {
			return fmt.Errorf("%s of status %d, of a second of %s", units.CountOf(f.Requests, "request", "requests"),
				l.Statuses[j], units.CountOf(e.Requests, "request", "requests"))
		}
		if n := f.Duration.Count(); n != f.Requests {
			return fmt.Errorf("its status %d's duration histogram holds %s, the status %s", l.Statuses[j],
				units.CountOf(n, "request", "requests"), units.CountOf(f.Requests, "request", "requests"))
		}
		sum += f.Requests
	}
	return nil
}

// samplesPast says why e's error samples cannot be: of no failure kind,
// more of a kind than a second keeps, a status no answer has (0 is none),
// or counting more than their kind's failures.
func samplesPast(e *metrics.EndpointSecond) error {
	var kept [sample.NumKinds]int
	var counted [sample.NumKinds]int64 // each at most its kind's failures: no sum below overflows
	for _, es := range e.Errors {
		k := es.Kind
		if k == sample.OK || k >= sample.NumKinds {
			return fmt.Errorf("an error sample of kind %d, no failure's", k)
		}
		if kept[k]++; kept[k] > metrics.MaxErrorSamples {
			return fmt.Errorf("%d %s error samples in a second, more than the %d one keeps", kept[k], k, metrics.MaxErrorSamples)
		}
		if es.Status != 0 && !answerStatus(es.Status) {
			return fmt.Errorf("its %s error sample of status %d, %s", k, es.Status, noAnswer)
		}
		if es.Count < 0 || es.Count > e.Failures[k]-counted[k] {
			return fmt.Errorf("its %s error sample %q counts %s, and those before it %s, of %s", k, clip(es.Message, 64),
				units.Count(es.Count), units.Count(counted[k]), units.CountOf(e.Failures[k], k.String()+" failure", k.String()+" failures"))
		}
		counted[k] += es.Count
	}
	return nil
}

// clipMessages cuts s's error messages and reasons not sent to maxErrorText.
func clipMessages(s *metrics.Snapshot) {
	for i := range s.Endpoints {
		for j := range s.Endpoints[i].Errors {
			es := &s.Endpoints[i].Errors[j]
			es.Message = clip(es.Message, maxErrorText)
		}
	}
	for i := range s.Scenarios {
		for j := range s.Scenarios[i].NotSentWhy {
			es := &s.Scenarios[i].NotSentWhy[j]
			es.Message = clip(es.Message, maxErrorText)
		}
	}
}
