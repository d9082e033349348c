"""What both the server and the hosts use: domain models, the plan schema,
plan parsing and validation, the server↔host protocol, configuration, errors."""
