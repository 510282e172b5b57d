package app

// ExitNotJudged is the exit code of a gate that could not judge what it
// gates (compare --fail-on-regression, history --fail-on-change): the
// same 3 as ExitNotDetermined, as 3 means "could not judge" for every
// command, apart from 99's "regressed".
const ExitNotJudged = ExitNotDetermined
