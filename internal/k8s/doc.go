// Package k8s places loadlens agents on a Kubernetes cluster: it builds
// the objects of a distributed run (a Secret with the token, a ConfigMap
// with the test, an Indexed Job of agents), creates them through the
// user's kubeconfig, follows the agents' pods, reaches each agent through
// the API server's port-forward, and deletes everything it created.
// Placement and restarts are Kubernetes's job; the coordinator is
// loadlens's and runs on the user's machine.
package k8s
