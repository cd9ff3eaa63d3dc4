// Deterministic execution lives in its own module so that its job routing and driver
// thread never reach an app; a test that imports `SchedulersTesting` gets it with the rest.
@_exported import SchedulersDeterministic
