// Package capacityrun is `loadlens capacity`: a search for the highest
// rate the target sustains within the test's thresholds, each step a run
// of app's lifecycle, with capacity.json and capacity.html beside them.
// The search itself is the pure internal/capacity.
package capacityrun
