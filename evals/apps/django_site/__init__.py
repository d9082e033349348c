"""A tiny Django project whose admin site is the app under test (two models: customers and products)."""
