"""The assembly planning domain: build a product from sub-assemblies in the required order."""
