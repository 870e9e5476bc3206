"""Admin registrations for the tournament models; added with the models."""
