"""cardplay"""
