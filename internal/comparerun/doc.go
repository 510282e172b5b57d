// Package comparerun is `loadlens compare`: it reads past runs (or groups
// of them) back from their run.db, has the pure internal/compare compare
// them, renders the comparison and judges the regression gates.
package comparerun
