"""Verifications: element (DOM / UI dump), text (OCR), image (template match), video."""
