package app

// Version is loadlens's version, recorded in every run.
const Version = "0.1.0-dev"
