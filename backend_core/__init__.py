"""What a host runs: controllers, the three executors and the navigation graph."""
