// Package historyrun is `loadlens history`: the runs of a results
// directory's index or of a shared store, their figures over time, the
// changes found in them and the gate on those changes.
package historyrun
