"""The rovers planning domain: planetary rovers sample soil and rock, take images and send data to a lander."""
