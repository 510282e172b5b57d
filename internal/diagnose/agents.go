package diagnose

// The per-agent series of a distributed run, one point per agent and
// second, labelled AgentLabel, beside the generator's own (role
// "generator", target AgentsTarget): the report draws one chart per metric
// with a line per agent, and the generator findings name a weak agent.
const (
	AgentsTarget    = "agents"                             // the target label of the per-agent series
	AgentLabel      = "agent"                              // the label naming the agent, e.g. "agent 3 10.0.0.7:6565"
	AgentOffered    = "loadlens_agent_offered"             // iterations its segment of the schedule offered in the second (open model)
	AgentIterations = "loadlens_agent_iterations"          // iterations it completed in the second
	AgentRequests   = "loadlens_agent_requests"            // requests it completed in the second
	AgentCPU        = "loadlens_agent_cpu_cores"           // cores its process kept busy
	AgentCPUShare   = "loadlens_agent_cpu_share"           // that, as a share of the cores it may use
	AgentLag        = "loadlens_agent_lag_p99_s"           // its worst scenario's scheduler lag p99, in seconds
	AgentStall      = "loadlens_agent_sched_latency_p99_s" // its goroutines' wait to run, p99, in seconds (GeneratorStall of its process)
	AgentDropped    = "loadlens_agent_dropped"             // iterations it dropped for lack of a VU in the second
	AgentErrors     = "loadlens_agent_errors"              // its failed requests in the second
	AgentHostCPU    = "loadlens_agent_host_cpu_cores"      // cores busy on its host, every process counted (its /proc/stat)
	AgentHostCPUs   = "loadlens_agent_host_cpus"           // its host's CPUs
	// AgentHostLabel names the agent's host (its os.Hostname) on its host series.
	AgentHostLabel = "agent_host"
)

// distributed reports whether agents made the load: then the generator's
// CPU series are the busiest agent's each second, and findings say so.
func (c *context) distributed() bool {
	for _, s := range c.set {
		if s.Label("target") == AgentsTarget {
			return true
		}
	}
	return false
}
