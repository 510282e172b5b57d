package sample

// Preparer is implemented by a Recorder that can make, before the run's
// clock starts, what recording the first seconds would otherwise allocate
// on the request path (the engine calls it while it prepares the VUs).
type Preparer interface {
	// Prepare allocates ahead; it may be called once, before any record.
	Prepare()
}
