"""devicepilot: plain-language test tasks planned and run on real devices."""
__version__ = "0.1.0"
