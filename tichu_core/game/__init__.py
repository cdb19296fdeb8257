"""game"""
