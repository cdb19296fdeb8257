"""A PettingZoo AEC environment for every variant, for reinforcement learning (docs/rl.md).

Needs the optional ``rl`` extra (``pip install tichu[rl]``). The rooms: ``actions``
(the variant's fixed action space), ``observations`` (the observation vector) and
``environment`` (the environment itself, :func:`env`, and the ``python -m`` speed check).
"""

from tichu_core.frontends.rl.actions import ActionTable
from tichu_core.frontends.rl.environment import TichuEnv, env
from tichu_core.frontends.rl.observations import ObservationEncoder

__all__ = ["ActionTable", "ObservationEncoder", "TichuEnv", "env"]
