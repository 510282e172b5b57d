// Package demorun is `loadlens demo`: it starts the demo shop (in-process
// or as a child), runs the scripted session against it through app's
// lifecycle and shows what changed between the runs.
package demorun
